import type { MembersService } from './members-service';
import type { WorkspaceAccess } from './workspace-access';
import type { WorkspacesService } from './workspaces-service';

export interface WorkspaceServices {
  access: WorkspaceAccess;
  workspaces: WorkspacesService;
  members: MembersService;
}
