// Loaded before every test file (bunfig.toml).
import { installTemporalRuntimeLogging } from '../../src/temporal/runtime-logging';
import { createLogger } from '../../src/logging/logger';

// One Temporal runtime per process: install it quietly before any test creates a worker.
installTemporalRuntimeLogging(createLogger({ level: 'error' }), 'error');
