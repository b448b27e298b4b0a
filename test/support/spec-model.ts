/**
 * A spec read as the exchange-api command reads it: through the generator's loader and model, once per
 * test process. The e2e project runs without module isolation (test/vitest.config.ts), so the files a
 * worker runs share this module: our spec's model (seconds of CPU to build) is built once per worker,
 * not once per file. The command itself loads it once per run.
 */
import { modelFromSpec } from '@exchange-api/codegen';

const models = new Map<string, ReturnType<typeof modelFromSpec>>();

export const loadSpec = (file: string) => models.get(file) ?? models.set(file, modelFromSpec(file)).get(file)!;
