export { loadConfig, type Config, type LogLevel, type MetadataConfig, type SignupMode } from './config';
export { ConfigError, type EnvSource } from './env-reader';
export type { LakeConfig } from './lake-config';
