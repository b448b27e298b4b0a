/**
 * Run before each test file (vitest's setupFiles, evaluated again for every file): the cleanup of the
 * shared test helpers, after each test. Files share those modules (no isolation, vitest.config.ts), so a
 * hook written in a helper module would be registered only in the first file that imported it.
 */
import { afterEach } from 'vitest';
import { endTestSandboxes } from './helpers';
import { destroyPeers } from './peers';
import { killLeftGroups } from './processes';

afterEach(async () => {
  killLeftGroups();
  destroyPeers();
  await endTestSandboxes();
});
