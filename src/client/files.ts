import { ApiRequestError, apiFetch } from './session/http.js';

/** A base64 file's bytes. */
export function base64Bytes(fileBase64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(fileBase64), (c) => c.charCodeAt(0));
}

/** Saves a base64 file the browser way. */
/** An Excel file the server answered ({ fileBase64, fileName }), saved as the browser saves downloads. */
export function saveWorkbook(file: { fileBase64: string; fileName: string }): void {
  saveBase64(
    file.fileBase64,
    file.fileName,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
}

export function saveBase64(fileBase64: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([base64Bytes(fileBase64)], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A data URL's bytes as a file, for an upload. */
export function dataUrlFile(dataUrl: string, name: string): File {
  const [head, body] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'application/octet-stream';
  return new File([base64Bytes(body ?? '')], name, { type });
}

/** The file name the server gave (Content-Disposition, RFC 5987 first), or a plain one. */
function fileNameOf(header: string | null, fallback: string): string {
  const starred = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (starred) return decodeURIComponent(starred);
  return /filename="([^"]+)"/i.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a file the server streams to a GET (an Excel export), with the session's token, and
 * saves it under the name the server gave (else `fallback`); a refusal is an ApiRequestError.
 */
export async function downloadFile(url: string, fallback: string): Promise<void> {
  const response = await apiFetch(url);
  if (!response.ok) {
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    throw new ApiRequestError(response.statusText, response.status, body);
  }
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(response.headers.get('content-disposition'), fallback);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
