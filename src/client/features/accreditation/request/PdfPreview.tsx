import CloseIcon from '@mui/icons-material/Close';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Typography,
} from '@mui/material';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, VerbosityLevel } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { base64Bytes, saveBase64 } from '../../../files.js';

// The worker is served by the console itself: nothing comes from another host.
GlobalWorkerOptions.workerSrc = workerUrl;

export interface PreviewFile {
  title: string;
  /** The person's document and name, when the file is one of a person's requirements. */
  subtitle?: string;
  name: string;
  /** The file, base64. */
  load(): Promise<string>;
}

/** Draws every page of a PDF on canvases as wide as the dialog. */
function Pages({ pdf, width }: { pdf: PDFDocumentProxy; width: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    const target = box.current;
    if (!target) return;
    target.replaceChildren();
    (async () => {
      for (let number = 1; number <= pdf.numPages && !cancelled; number++) {
        const page = await pdf.getPage(number);
        const base = page.getViewport({ scale: 1 });
        const scale = Math.max(0.5, Math.min(2, width / base.width));
        const viewport = page.getViewport({ scale: scale * window.devicePixelRatio });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        canvas.style.width = `${viewport.width / window.devicePixelRatio}px`;
        canvas.style.display = 'block';
        canvas.style.margin = '0 auto 12px';
        canvas.style.boxShadow = '0 1px 4px rgba(0,0,0,.3)';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', `${number} / ${pdf.numPages}`);
        canvas.dataset.page = String(number);
        target.append(canvas);
        const context = canvas.getContext('2d');
        if (context) await page.render({ canvas, canvasContext: context, viewport }).promise;
      }
    })().catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [pdf, width]);
  return <Box ref={box} data-testid="pdf-pages" />;
}

/**
 * The file preview of spec section 2: a PDF drawn in the console (pdf.js, bundled), with its
 * title, the person's document and name, and a download button.
 */
export default function PdfPreview({ file, onClose }: { file: PreviewFile | undefined; onClose(): void }) {
  const translate = useTranslate();
  const [data, setData] = useState<string>();
  const [pdf, setPdf] = useState<PDFDocumentProxy>();
  const [failed, setFailed] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(760);
  useEffect(() => {
    setData(undefined);
    setPdf(undefined);
    setFailed(false);
    if (!file) return;
    let cancelled = false;
    let loaded: PDFDocumentProxy | undefined;
    (async () => {
      const base64 = await file.load();
      if (cancelled) return;
      setData(base64);
      loaded = await getDocument({
        data: base64Bytes(base64),
        isEvalSupported: false,
        useSystemFonts: true,
        verbosity: VerbosityLevel.ERRORS,
      }).promise;
      if (cancelled) await loaded.destroy();
      else setPdf(loaded);
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      loaded?.destroy();
    };
  }, [file]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again once the pages come
  useEffect(() => {
    if (content.current) setWidth(Math.max(280, content.current.clientWidth - 32));
  }, [pdf]);
  return (
    <Dialog
      open={Boolean(file)}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="pdf-preview-title"
    >
      <DialogTitle id="pdf-preview-title" sx={{ pr: 6 }}>
        {file?.title}
        {file?.subtitle && (
          <Typography variant="body2" color="text.secondary">
            {file.subtitle}
          </Typography>
        )}
        <IconButton
          aria-label={translate('ra.action.close')}
          onClick={onClose}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers ref={content} sx={{ bgcolor: 'grey.100', minHeight: 300 }}>
        {failed ? (
          <Alert severity="error">{translate('accreditation.files.unreadable')}</Alert>
        ) : pdf ? (
          <Pages pdf={pdf} width={width} />
        ) : (
          <LinearProgress aria-label={translate('ra.page.loading')} />
        )}
      </DialogContent>
      <DialogActions>
        <Button
          startIcon={<DownloadIcon />}
          disabled={!data}
          onClick={() => data && file && saveBase64(data, file.name, 'application/pdf')}
        >
          {translate('accreditation.files.download')}
        </Button>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
