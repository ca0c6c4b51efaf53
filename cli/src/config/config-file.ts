import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { CliError, exitCodes } from '../exit-codes';

/** One service the CLI talks to, under a name. */
export interface Profile {
  url: string;
  api_key?: string;
  /** The workspace commands use unless told otherwise (`workspaces use`). */
  workspace?: string;
  /** The key was made by `oxbow login` in the browser, so `logout` revokes it. */
  key_from_login?: boolean;
}

export interface ConfigFile {
  /** The profile used when neither --profile nor OXBOW_PROFILE names one. */
  current_profile?: string;
  profiles: Record<string, Profile>;
}

export const defaultProfileName = 'default';

/** `$XDG_CONFIG_HOME/oxbow/config.toml`, by default `~/.config/oxbow/config.toml`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'oxbow', 'config.toml');
}

export function readConfig(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`${path} is not valid TOML: ${(error as Error).message.split('\n')[0]}`, exitCodes.usage, 'Fix or remove the file, then log in again.');
  }
  const profiles = (parsed.profiles ?? {}) as Record<string, Profile>;
  return { current_profile: typeof parsed.current_profile === 'string' ? parsed.current_profile : undefined, profiles };
}

/**
 * Writes the file readable by its owner only (it holds API keys): a temporary file made with mode
 * 0600 and renamed over the old one, so that no moment exists where the keys are readable by others
 * or half written.
 */
export function writeConfig(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const body = { ...(config.current_profile ? { current_profile: config.current_profile } : {}), profiles: config.profiles };
  writeFileSync(temporary, `# Written by oxbow. Holds API keys: keep it private (mode 0600).\n${stringify(body)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
