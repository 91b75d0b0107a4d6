/**
 * Where a Hugging Face model's files are on disk, how transformers.js is pointed at them (and at the hub for a
 * download), and how a failed load is told to the person — shared by every model Sift runs through transformers.js
 * (the embedding model in its worker, the cross-encoder reranker), so both look in the same folders, download the
 * same way, report progress the same way and explain a failure in the same words.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { env as TransformersEnv, ProgressInfo } from '@huggingface/transformers';
import { SiftError } from '../../../shared/errors';

/** Quantisation of the ONNX file: 'q8' loads `onnx/model_quantized.onnx`, 'fp32' `onnx/model.onnx`. */
export type ModelDtype = 'q8' | 'fp32';

/** The folders a model is looked up in. */
export interface ModelFolders {
  /** Folder models are downloaded to and looked up in (`<data dir>/models`). */
  modelsDir: string;
  /** A folder that already holds `<modelId>/…` files (configurable local model folder); checked before modelsDir. */
  localModelDir?: string;
}

/** Where a model's files are and whether they are all there. */
export interface ModelLocation {
  /** Folder holding `<modelId>/…` to read from. */
  root: string;
  /** True when the config and the ONNX file for the chosen dtype exist under `root`. */
  onDisk: boolean;
}

/** How transformers.js finds and fetches one model (also the embedding worker's settings). */
export interface HubSettings {
  /** Folder holding `<modelId>/…` that transformers.js reads first (`env.localModelPath`). */
  lookIn: string;
  /** Folder downloads are written to (`env.cacheDir`), or null to write nothing. */
  downloadTo: string | null;
  /** Whether a missing file may be fetched from the Hugging Face hub. */
  allowDownload: boolean;
  /** Hub address to download from; undefined for transformers.js's default (huggingface.co). */
  remoteHost?: string;
  /** Whether the model's files were already on disk (progress then says `loading`, not `downloading`). */
  onDisk: boolean;
}

/** One file's progress while a model downloads or loads. */
export interface FileProgress {
  status: 'downloading' | 'loading';
  file?: string;
  loaded?: number;
  total?: number;
}

// A hub id is `name` or `owner/name`; anything else (`..`, absolute paths) could read outside the folder.
const MODEL_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;

/** True when `modelId` is a Hugging Face id (`name` or `owner/name`) that stays inside a models folder. */
export function isModelId(modelId: string): boolean {
  return MODEL_ID.test(modelId) && !modelId.includes('..');
}

/** `modelId` when it is a Hugging Face id, else SiftError('invalid_argument') naming `what` ("Embedding model"). */
export function checkModelId(modelId: string, what: string, example: string): string {
  if (!isModelId(modelId)) {
    throw new SiftError('invalid_argument', `${what} id "${modelId}" is not a Hugging Face id like "${example}".`);
  }
  return modelId;
}

/** True when `root/<modelId>` holds the files transformers.js needs for `dtype`. */
export function hasModel(root: string, modelId: string, dtype: ModelDtype): boolean {
  const dir = path.join(root, ...modelId.split('/'));
  const onnx = dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx';
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', path.join('onnx', onnx)];
  return files.every((file) => fs.existsSync(path.join(dir, file)));
}

/** The local model folder when it holds the model, else the models folder (whether or not it holds it). */
export function locateModel(folders: ModelFolders, modelId: string, dtype: ModelDtype): ModelLocation {
  if (folders.localModelDir && hasModel(folders.localModelDir, modelId, dtype)) {
    return { root: folders.localModelDir, onDisk: true };
  }
  return { root: folders.modelsDir, onDisk: hasModel(folders.modelsDir, modelId, dtype) };
}

/** The model's own folders that are looked in, local folder first, for messages. */
export function lookedIn(folders: ModelFolders, modelId: string): string[] {
  const roots = folders.localModelDir ? [folders.localModelDir, folders.modelsDir] : [folders.modelsDir];
  return roots.map((root) => path.join(root, ...modelId.split('/')));
}

/**
 * How transformers.js should find the model at `location`: a model found in the person's own folder is read there
 * and never downloaded into it; otherwise a download goes to `downloadDir` (a throw-away run) or the models folder.
 */
export function hubSettings(
  folders: ModelFolders & { downloadDir?: string; remoteHost?: string },
  location: ModelLocation,
  allowDownload: boolean,
): HubSettings {
  const inModelsDir = location.root === folders.modelsDir;
  return {
    lookIn: location.root,
    downloadTo: inModelsDir ? (folders.downloadDir ?? folders.modelsDir) : null,
    allowDownload: allowDownload && inModelsDir,
    remoteHost: folders.remoteHost,
    onDisk: location.onDisk,
  };
}

/** Point transformers.js's `env` (global to its thread) at the folders and hub of `settings`. */
export function applyHubSettings(env: typeof TransformersEnv, settings: HubSettings): void {
  env.allowLocalModels = true;
  env.allowRemoteModels = settings.allowDownload;
  env.localModelPath = settings.lookIn;
  env.useFSCache = settings.downloadTo !== null;
  if (settings.downloadTo !== null) env.cacheDir = settings.downloadTo;
  if (settings.remoteHost) {
    env.remoteHost = settings.remoteHost.endsWith('/') ? settings.remoteHost : `${settings.remoteHost}/`;
  }
}

/**
 * A transformers.js `progress_callback` that passes on each file's start and progress, at most once per whole
 * percent per file, so a download does not flood the listener (a worker port, the event bus).
 */
export function progressForwarder(
  onDisk: boolean,
  send: (progress: FileProgress) => void,
): (info: ProgressInfo) => void {
  const lastPercent = new Map<string, number>();
  const status: FileProgress['status'] = onDisk ? 'loading' : 'downloading';
  return (info) => {
    if (info.status === 'initiate') {
      send({ status, file: info.file });
    } else if (info.status === 'progress') {
      const percent = Math.floor(info.progress);
      if (lastPercent.get(info.file) === percent) return;
      lastPercent.set(info.file, percent);
      send({ status, file: info.file, loaded: info.loaded, total: info.total });
    }
  };
}

/** The folders a person can put the model in, as words: "the folder X" or "one of the folders X or Y". */
export function placesFor(folders: string[]): string {
  const [first, second] = folders;
  return second ? `one of the folders ${first} or ${second}` : `the folder ${first}`;
}

/** A loader's reason, cut short: the note is read with every result that had to do without the model. */
export function briefly(message: string): string {
  const line = message.replace(/\s+/g, ' ').replace(/\.$/, '').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * Why a model that transformers.js failed to load (`reason`) cannot be had, in words: damaged files on disk, a
 * failed download, or downloading turned off. Completes "Model X …".
 */
export function whyNotLoaded(settings: HubSettings, modelId: string, reason: string): string {
  if (settings.onDisk) {
    const dir = path.join(settings.lookIn, ...modelId.split('/'));
    return `could not be loaded from ${dir} (${briefly(reason)}); its files may be damaged or incomplete`;
  }
  if (!settings.allowDownload) return 'is not on this computer and downloading is turned off';
  const host = settings.remoteHost ?? 'huggingface.co';
  return `is not on this computer and downloading it from ${host} failed (${briefly(reason)})`;
}
