/** Media rules of the network for template header files: types, size limits and content sniffing. */

/** Allowed MIME types for the resumable upload, with their size limits in bytes (research §3). */
export const MEDIA_LIMITS: Record<string, number> = {
  'application/pdf': 100 * 1024 * 1024,
  'image/jpeg': 5 * 1024 * 1024,
  'image/jpg': 5 * 1024 * 1024,
  'image/png': 5 * 1024 * 1024,
  'video/mp4': 16 * 1024 * 1024,
};

/** The largest file any type allows. */
export const MAX_MEDIA_BYTES = Math.max(...Object.values(MEDIA_LIMITS));

/** The MIME type the first bytes show, or null when they match no allowed type. */
export function sniffMediaType(head: Buffer): string | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return null;
}

/** Why a file cannot be uploaded, or null when it can. */
export function mediaProblem(declaredType: string, sniffedType: string | null, length: number): string | null {
  const limit = MEDIA_LIMITS[declaredType];
  if (limit === undefined) return `file type ${declaredType} is not allowed; use ${Object.keys(MEDIA_LIMITS).join(', ')}`;
  const canonical = declaredType === 'image/jpg' ? 'image/jpeg' : declaredType;
  if (sniffedType !== canonical) return `the file content is not ${declaredType}`;
  if (length === 0) return 'the file is empty';
  if (length > limit) return `the file is ${length} bytes; ${declaredType} allows at most ${limit}`;
  return null;
}
