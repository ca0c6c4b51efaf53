import type { Command } from '@commander-js/extra-typings';
import { readConfig, writeConfig } from '../config/config-file';
import { resolveSettings } from '../config/settings';
import type { GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { Output } from '../output/output';

export function registerProfiles(program: Command<[], GlobalOptions>): void {
  const profiles = program.command('profiles').description('Several services or accounts, each under a name (--profile NAME, OXBOW_PROFILE)');

  profiles
    .command('ls')
    .description('The profiles of the config file')
    .action((_options, command) => {
      const globals = command.optsWithGlobals();
      const settings = resolveSettings(globals);
      const config = readConfig(settings.configFile);
      const rows = Object.entries(config.profiles).map(([name, profile]) => ({
        current: name === settings.profileName ? '*' : '',
        name,
        url: profile.url,
        logged_in: Boolean(profile.api_key),
        workspace: profile.workspace ?? null,
      }));
      Output.for(globals).list(
        [
          { key: 'current', header: '' },
          { key: 'name', header: 'PROFILE' },
          { key: 'url', header: 'URL' },
          { key: 'logged_in', header: 'LOGGED IN' },
          { key: 'workspace', header: 'WORKSPACE' },
        ],
        rows,
      );
    });

  profiles
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>')
    .action((name, _options, command) => {
      const globals = command.optsWithGlobals();
      const settings = resolveSettings(globals);
      const config = readConfig(settings.configFile);
      if (!config.profiles[name]) throw new CliError(`No profile "${name}"`, exitCodes.notFound, 'Create it with `oxbow login --profile NAME --url URL`.');
      writeConfig(settings.configFile, { ...config, current_profile: name });
      Output.for(globals).note(`Profile "${name}" is now the current one`);
    });

  profiles
    .command('rm')
    .description('Remove a profile and its key from the config file')
    .argument('<name>')
    .action((name, _options, command) => {
      const globals = command.optsWithGlobals();
      const settings = resolveSettings(globals);
      const config = readConfig(settings.configFile);
      if (!config.profiles[name]) throw new CliError(`No profile "${name}"`, exitCodes.notFound);
      delete config.profiles[name];
      writeConfig(settings.configFile, { ...config, current_profile: config.current_profile === name ? undefined : config.current_profile });
      Output.for(globals).note(`Profile "${name}" removed`);
    });
}
