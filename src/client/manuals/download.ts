import { saveBase64 } from '../files.js';
import { apiCall } from '../session/http.js';

/** A guide's PDF in the console's language, saved as the browser saves a download. */
export async function downloadGuide(fileName: string): Promise<void> {
  const file = await apiCall<{ fileBase64: string; fileName: string; fileType: string }>(
    'GET',
    `/api/SistemaArchivo/descargar?${new URLSearchParams({ fileName, fileType: 'pdf' })}`,
  );
  saveBase64(file.fileBase64, file.fileName, file.fileType);
}
