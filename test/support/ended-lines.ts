/**
 * The non-empty lines of `text` that a newline ends: of output another process is still writing
 * (a file, a pipe read in blocks), a line it is midway through is left out until it is ended.
 */
export function endedLines(text: string): string[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line !== '');
}
