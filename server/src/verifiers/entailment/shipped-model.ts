// The entailment model the project trains and ships (training/entailment, `npm run train`): the deployment's
// default local model when ENGINE_MODEL_DIR names no other. The same relative path holds from src/ and dist/.
import { fileURLToPath } from 'node:url';

export const shippedModelDir = fileURLToPath(new URL('../../../models/groundcheck-nli', import.meta.url));
