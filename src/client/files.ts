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
