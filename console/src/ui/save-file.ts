// Hands a Blob to the browser as a download: an object URL on a temporary link with `download`,
// revoked once the click has handed it over, so the bytes are not kept for the page's lifetime.
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download takes the URL during the click's own task; revoking on the next one is safe.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
