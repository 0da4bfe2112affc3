# SPDX-License-Identifier: MIT
"""video-processing: FunctionBench's video_processing (OpenCV: cvtColor to
gray per frame) with SeBS 220's scale-down, watermark and GIF, as
video-processing.c does it: per frame cv2.cvtColor(RGB2GRAY), cv2.resize
to half width and height (INTER_LINEAR), the logo alpha-blended into the
bottom-right corner (numpy, video-processing.c's integer blend), then all
frames as one looping 25 fps GIF by Pillow (python3-opencv 4.6 has no GIF
writer; python3-pil 9.4 is the Debian library that writes one).

The clip (RGB frames) and the logo are the ones video-processing.c
generated from the seed, read from the files `cvmfn prepare` exports; the
test variants (ramp, cube, solid) are the C function's own. The GIF's
bytes (the digest) are not the C one's (another palette and LZW encoder,
OpenCV's 11-bit resize weights against the C function's 8-bit): the check
is the decoded GIF, the same frame count, size, loop and delay, and every
pixel within 1 gray level (docs/workloads.md).
"""
import io

import inputs

REQUIRES = [("cv2", "python3-opencv"), ("PIL", "python3-pil"), ("numpy", "python3-numpy")]
IMPORTS = ["numpy", "cv2", "PIL.Image"]
DELAY_MS = 40


class Function:
    def __init__(self, params):
        import cv2
        import numpy
        if params.variant or params.input:
            raise ValueError("video-processing (python): the clip from the seed only, "
                             "no --variant or --input")
        self.cv2, self.threads = cv2, params.threads
        cv2.setNumThreads(params.threads)
        n, w, h = params.pick(8, 60, 150), params.pick(64, 320, 640), params.pick(48, 240, 480)
        self.dst_w, self.dst_h = w // 2, h // 2
        self.logo_size = max(self.dst_h // 4, 8)
        margin = max(self.dst_h // 40, 1)
        self.logo_x = self.dst_w - self.logo_size - margin
        self.logo_y = self.dst_h - self.logo_size - margin
        data = inputs.read(params, "video-processing", "frames", n * h * w * 3)
        self.frames = numpy.frombuffer(data, dtype=numpy.uint8).reshape(n, h, w, 3)
        logo = inputs.read(params, "video-processing", "logo", self.logo_size ** 2)
        self.alpha = numpy.frombuffer(logo, dtype=numpy.uint8).reshape(
            self.logo_size, self.logo_size).astype(numpy.uint32)
        self.output, self.summary = params.output, ""

    def frame(self, rgb):
        gray = self.cv2.cvtColor(rgb, self.cv2.COLOR_RGB2GRAY)
        small = self.cv2.resize(gray, (self.dst_w, self.dst_h),
                                interpolation=self.cv2.INTER_LINEAR)
        y, x, s, a = self.logo_y, self.logo_x, self.logo_size, self.alpha
        box = small[y:y + s, x:x + s].astype(a.dtype)
        small[y:y + s, x:x + s] = (box * (256 - a) + 255 * a + 128) >> 8
        return small

    def invoke(self, out):
        from PIL import Image
        images = [Image.fromarray(self.frame(rgb), "L") for rgb in self.frames]
        buf = io.BytesIO()
        images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                       duration=DELAY_MS, loop=0)
        gif = buf.getvalue()
        out.ref(gif)
        if self.output:
            out.file(self.output, gif)
        n, h, w = self.frames.shape[:3]
        self.summary = ("%d frames %dx%d -> %dx%d gray+watermark, GIF %d bytes (%.2f "
                        "bits/pixel, Pillow)" % (n, w, h, self.dst_w, self.dst_h, len(gif),
                                                 8.0 * len(gif) / (n * self.dst_w * self.dst_h)))
