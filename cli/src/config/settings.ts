import { configPath, defaultProfileName, readConfig, writeConfig, type ConfigFile, type Profile } from './config-file';

/** What a command runs with: the profile's settings, with the environment over them. */
export interface Settings {
  profileName: string;
  url: string;
  apiKey: string | undefined;
  workspace: string | undefined;
  /** Where the settings were read, to save changes back. */
  configFile: string;
}

export const defaultUrl = 'http://127.0.0.1:3000';

/**
 * The profile is --profile, else OXBOW_PROFILE, else the config's current one, else `default`.
 * OXBOW_URL and OXBOW_API_KEY override the profile's own (CI sets them and needs no file at all).
 */
export function resolveSettings(options: { profile?: string; workspace?: string }, env: NodeJS.ProcessEnv = process.env): Settings {
  const file = configPath(env);
  const config = readConfig(file);
  const profileName = options.profile ?? nonEmpty(env.OXBOW_PROFILE) ?? config.current_profile ?? defaultProfileName;
  const profile: Partial<Profile> = config.profiles[profileName] ?? {};
  return {
    profileName,
    url: trimSlash(nonEmpty(env.OXBOW_URL) ?? profile.url ?? defaultUrl),
    apiKey: nonEmpty(env.OXBOW_API_KEY) ?? profile.api_key,
    workspace: options.workspace ?? profile.workspace,
    configFile: file,
  };
}

/** Changes one profile in the file (created with it when missing). */
export function updateProfile(settings: Settings, change: (profile: Profile, config: ConfigFile) => Profile | undefined): void {
  const config = readConfig(settings.configFile);
  const current: Profile = config.profiles[settings.profileName] ?? { url: settings.url };
  const next = change({ ...current }, config);
  if (next) config.profiles[settings.profileName] = next;
  else delete config.profiles[settings.profileName];
  writeConfig(settings.configFile, config);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
