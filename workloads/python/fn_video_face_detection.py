# SPDX-License-Identifier: MIT
"""video-face-detection: FunctionBench's video face detection with OpenCV
(python3-opencv 4.6): per frame cv2.cvtColor(RGB2GRAY), then
CascadeClassifier.detectMultiScale2(gray, 1.1, 3) with the frontal-face
Haar cascade of Debian's opencv-data (--input: another cascade), as
video-face-detection.c, which redoes OpenCV's detector in C.

The clip (RGB frames) is the one video-face-detection.c generated from the
seed, read from the file `cvmfn prepare` exports. init loads the cascade
and the frames (a warm instance holds the decoded video); invoke detects
on every frame. The digest is per frame its index, its face count and each
face's x, y, w, h and neighbour count (u64 each); the C digest also holds
the windows evaluated and the raw hits, which OpenCV does not report. The
check: --output writes the C function's PPM sequence (the RGB frames, a
"# face X Y W H NEIGHBORS" comment per face), and the frames and the faces
with their neighbour counts must equal the C one's (docs/workloads.md).
"""
import os

import inputs

REQUIRES = [("cv2", "python3-opencv"), ("numpy", "python3-numpy")]
DEFAULT_CASCADE = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
SCALE_FACTOR, MIN_NEIGHBORS = 1.1, 3


class Function:
    def __init__(self, params):
        import cv2
        import numpy
        if params.variant:
            raise ValueError("video-face-detection has no variants")
        self.cv2, self.threads = cv2, params.threads
        cv2.setNumThreads(params.threads)
        path = params.input or DEFAULT_CASCADE
        if not os.access(path, os.R_OK):
            raise inputs.MissingInput(
                "cascade file %s is missing or unreadable: install Debian package "
                "opencv-data (apt-get install opencv-data), or pass another OpenCV Haar "
                "cascade XML with --input FILE" % path)
        self.cascade = cv2.CascadeClassifier(path)
        if self.cascade.empty():
            raise ValueError("cascade %s: OpenCV could not load it" % path)
        n, w, h = params.pick(2, 10, 30), params.pick(160, 320, 640), params.pick(120, 240, 480)
        data = inputs.read(params, "video-face-detection", "frames", n * h * w * 3)
        self.frames = numpy.frombuffer(data, dtype=numpy.uint8).reshape(n, h, w, 3)
        self.output, self.summary, self.faces = params.output, "", []

    def detect(self, rgb):
        gray = self.cv2.cvtColor(rgb, self.cv2.COLOR_RGB2GRAY)
        found, neighbors = self.cascade.detectMultiScale2(gray, SCALE_FACTOR, MIN_NEIGHBORS)
        return [tuple(int(v) for v in r) + (int(k),) for r, k in zip(found, neighbors)]

    def invoke(self, out):
        self.faces = [self.detect(rgb) for rgb in self.frames]
        for f, faces in enumerate(self.faces):
            out.u64(f)
            out.u64(len(faces))
            for face in faces:
                for v in face:
                    out.u64(v)
        if self.output:
            out.file(self.output, self.ppm)
        n, h, w = self.frames.shape[:3]
        self.summary = "%d frames %dx%d, %d faces (OpenCV)" % (
            n, w, h, sum(map(len, self.faces)))

    def ppm(self):
        """The C function's --output: P6 frames, a comment per face."""
        n, h, w = self.frames.shape[:3]
        parts = []
        for f, faces in enumerate(self.faces):
            head = "P6\n# video-face-detection frame %d of %d (python)\n" % (f, n)
            head += "".join("# face %d %d %d %d %d\n" % face for face in faces)
            parts += [(head + "%d %d\n255\n" % (w, h)).encode(), self.frames[f].tobytes()]
        return b"".join(parts)
