import { ApiClient } from './api/api-client';
import { TokenCache } from './api/token-cache';
import { resolveSettings, type Settings } from './config/settings';
import { CliError, exitCodes } from './exit-codes';
import { Output } from './output/output';

/** The options every command takes (see program.ts). */
export type GlobalOptions = {
  profile?: string;
  workspace?: string;
  json?: true;
};

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  region: string;
  plan: string;
  role?: string;
  created_at: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a command runs with: its settings, a client of the service, and its output. */
export class CommandContext {
  private workspace: Promise<string> | undefined;

  constructor(
    readonly settings: Settings,
    readonly api: ApiClient,
    readonly out: Output,
  ) {}

  static from(options: GlobalOptions): CommandContext {
    const settings = resolveSettings(options);
    return new CommandContext(settings, new ApiClient(settings.url, settings.apiKey, TokenCache.forEnvironment()), Output.for(options));
  }

  /**
   * The workspace a command works in: --workspace or the profile's (`workspaces use`), by id or slug;
   * else the caller's default one, the earliest they joined, as the service's own default is.
   */
  workspaceId(): Promise<string> {
    this.workspace ??= this.resolveWorkspace();
    return this.workspace;
  }

  private async resolveWorkspace(): Promise<string> {
    const named = this.settings.workspace;
    if (named && uuid.test(named)) return named;
    const workspaces = await this.api.get<Workspace[]>('/workspaces');
    if (named) {
      const found = workspaces.find((workspace) => workspace.slug === named);
      if (!found) throw new CliError(`No workspace "${named}" among yours`, exitCodes.notFound, 'List them with `oxbow workspaces ls`.');
      return found.id;
    }
    const first = [...workspaces].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
    if (!first)
      throw new CliError('You have no workspace yet', exitCodes.rejected, 'Create one in the console, or with POST /api/v1/workspaces.', 'NO_WORKSPACE');
    return first.id;
  }
}
