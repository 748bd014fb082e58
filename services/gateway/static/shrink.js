// Large pictures are shrunk in the browser before upload: a 12 MP photo carries far more
// pixels than reading a grid needs, and sending it whole is slow on a phone. Both a file's
// size and its pixel count decide: a plain 9000 x 6750 JPEG is under 3 MB, and the
// gateway refuses its 61 million pixels.

export const SHRINK_ABOVE_BYTES = 3 * 1024 * 1024;
export const SHRINK_ABOVE_PIXELS = 12_000_000;
export const LONG_SIDE = 2400; // pixels kept on the long side

// The file itself when it is small enough in bytes and pixels (or cannot be decoded
// here), else an upright JPEG at most LONG_SIDE pixels long.
export async function shrinkPicture(file) {
  if (typeof createImageBitmap !== "function") return file;
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file; // the gateway will say what is wrong with it
  }
  const pixels = bitmap.width * bitmap.height;
  if (file.size <= SHRINK_ABOVE_BYTES && pixels <= SHRINK_ABOVE_PIXELS) {
    bitmap.close();
    return file;
  }
  const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  // A smaller file is kept; one of too many pixels is sent shrunk even if not smaller.
  if (!blob || (blob.size >= file.size && pixels <= SHRINK_ABOVE_PIXELS)) return file;
  const name = file.name.replace(/\.[^.]*$/, "") + ".jpg";
  return new File([blob], name, { type: "image/jpeg" });
}
