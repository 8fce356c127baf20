import { useState } from 'react';
import { messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { downloadFile } from '../api/download';

/** Downloads a bought file through the API (saved under the server's file name); a failure is a browser alert (SPEC §8). */
export function DownloadButton({ url, title, label, className = 'button' }: { url: string; title: string; label: string; className?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      await downloadFile(url, title);
    } catch (err) {
      window.alert(messageOf(err, t('orders.download_error')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className={className} onClick={download} disabled={busy} data-download-url={url}>
      {busy ? t('auth.processing') : label}
    </button>
  );
}
