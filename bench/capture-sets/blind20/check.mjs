// capture-blind20 consistency checks (the checker blind15 on share). Usage: node check.mjs   (exit code 1 on any failure)
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSet } from '../check-set.mjs';

checkSet(dirname(fileURLToPath(import.meta.url)));
