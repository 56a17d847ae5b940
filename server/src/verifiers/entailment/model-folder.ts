// Reads an entailment model's folder exactly as the operator laid it out. Nothing is fetched: a file missing here
// is an error, never a download.
import type { FileHandle } from 'node:fs/promises';
import { open, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';

/** The model cannot be used. The message names the file relative to the model folder, never a full path. */
export class EntailmentModelUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`Entailment model unavailable: ${message}`, options);
    this.name = 'EntailmentModelUnavailable';
  }
}

export type JsonObject = Record<string, unknown>;

export interface ModelFolder {
  /** Full path for onnxruntime, which also finds external weight files (model.onnx_data) beside it. */
  modelPath: string;
  /** The same file relative to the folder, for messages. */
  modelFile: string;
  tokenizer: JsonObject;
  /** Empty when the folder has no tokenizer_config.json. */
  tokenizerConfig: JsonObject;
  config: JsonObject;
  name: string;
}

const megabyte = 1024 * 1024;
const maxJsonBytes = 20 * megabyte;
const maxModelBytes = 2048 * megabyte;
const modelFiles = ['model.onnx', 'onnx/model.onnx'];

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

export async function readModelFolder(dir: string): Promise<ModelFolder> {
  const folder = await stat(dir).catch((error: unknown) => {
    throw new EntailmentModelUnavailable(isMissing(error) ? 'the model folder does not exist' : 'the model folder cannot be read', {
      cause: error,
    });
  });
  if (!folder.isDirectory()) throw new EntailmentModelUnavailable('the model folder is not a directory');
  const modelFile = await findModelFile(dir);
  const tokenizer = await readJson(dir, 'tokenizer.json');
  const tokenizerConfig = (await readJson(dir, 'tokenizer_config.json', { optional: true })) ?? {};
  const config = await readJson(dir, 'config.json');
  return { modelPath: join(dir, modelFile), modelFile, tokenizer, tokenizerConfig, config, name: modelName(dir, config) };
}

async function findModelFile(dir: string): Promise<string> {
  for (const file of modelFiles) {
    const found = await stat(join(dir, file)).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw new EntailmentModelUnavailable(`${file} cannot be read`, { cause: error });
    });
    if (!found) continue;
    if (!found.isFile()) throw new EntailmentModelUnavailable(`${file} is not a file`);
    if (found.size > maxModelBytes) throw new EntailmentModelUnavailable(`${file} is larger than ${maxModelBytes / megabyte} MB`);
    return file;
  }
  throw new EntailmentModelUnavailable(`model.onnx is missing (looked for ${modelFiles.join(' and ')})`);
}

async function readJson(dir: string, file: string): Promise<JsonObject>;
async function readJson(dir: string, file: string, options: { optional: true }): Promise<JsonObject | undefined>;
async function readJson(dir: string, file: string, options?: { optional: true }): Promise<JsonObject | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(join(dir, file), 'r');
  } catch (error) {
    if (isMissing(error) && options?.optional) return undefined;
    throw new EntailmentModelUnavailable(isMissing(error) ? `${file} is missing` : `${file} cannot be read`, { cause: error });
  }
  let text: string;
  try {
    // Checked on the open file, so the size read is the size of the file checked.
    const info = await handle.stat();
    if (!info.isFile()) throw new EntailmentModelUnavailable(`${file} is not a file`);
    if (info.size > maxJsonBytes) throw new EntailmentModelUnavailable(`${file} is larger than ${maxJsonBytes / megabyte} MB`);
    text = await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof EntailmentModelUnavailable) throw error;
    throw new EntailmentModelUnavailable(`${file} cannot be read`, { cause: error });
  } finally {
    await handle.close();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EntailmentModelUnavailable(`${file} is not valid JSON`, { cause: error });
  }
  if (!isJsonObject(value)) throw new EntailmentModelUnavailable(`${file} does not hold a JSON object`);
  return value;
}

/**
 * The Hub id the model was exported from, else the folder's name. An export run on a local checkout records a
 * local path there, which names the operator's machine rather than the model.
 */
function modelName(dir: string, config: JsonObject): string {
  const recorded = config._name_or_path;
  const usable = typeof recorded === 'string' && recorded.trim() !== '' && !isAbsolute(recorded) && !/^([.~\\]|[A-Za-z]:)/.test(recorded);
  return (usable ? recorded.trim() : basename(dir)).slice(0, 200);
}
