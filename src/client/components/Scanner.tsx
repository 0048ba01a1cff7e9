import { BrowserMultiFormatReader, type IScannerControls } from '@zxing/browser';
import { BarcodeFormat, DecodeHintType } from '@zxing/library';
import { useEffect, useRef } from 'react';

/**
 * The camera, read continuously for a badge's QR code or a document's Code 128 barcode (the gate
 * app's, and the trainer's attendance in the console). The back camera is asked for; `onRead` gets
 * each text read (the caller drops repeats). The video has the class `camera` to be sized by.
 */
export default function Scanner({
  onRead,
  onError,
  label,
}: {
  onRead: (text: string) => void;
  onError: () => void;
  label: string;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const read = useRef(onRead);
  read.current = onRead;
  const failed = useRef(onError);
  failed.current = onError;

  useEffect(() => {
    const hints = new Map<DecodeHintType, unknown>([
      [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.QR_CODE, BarcodeFormat.CODE_128]],
    ]);
    const reader = new BrowserMultiFormatReader(hints, { delayBetweenScanAttempts: 150 });
    let controls: IScannerControls | undefined;
    let stopped = false;
    if (!video.current) return;
    reader
      .decodeFromConstraints({ video: { facingMode: 'environment' } }, video.current, (result) => {
        if (result) read.current(result.getText());
      })
      .then((started) => {
        controls = started;
        if (stopped) started.stop();
      })
      .catch(() => failed.current());
    return () => {
      stopped = true;
      controls?.stop();
    };
  }, []);

  return <video ref={video} className="camera" muted playsInline aria-label={label} />;
}
