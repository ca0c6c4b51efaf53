import type { LakeConfig } from '../config';
import type { LakeStorage } from './lake-storage';
import { LocalLakeStorage } from './local-lake-storage';
import { S3LakeStorage } from './s3-lake-storage';

export function openLakeStorage(config: LakeConfig): LakeStorage {
  return config.kind === 's3' ? new S3LakeStorage(config) : new LocalLakeStorage(config.root);
}
