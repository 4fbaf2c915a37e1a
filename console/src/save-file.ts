/** Saves what the page holds as a file the browser downloads: from memory, never through a URL with a token. */
export function saveFile(content: Blob, name: string): void {
  const url = URL.createObjectURL(content);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
