# SPDX-License-Identifier: MIT
"""image-recognition: SeBS 411's ResNet inference with PyTorch and
torchvision (Debian python3-torch 1.13, python3-torchvision 0.14), as
SeBS does: torchvision.models.resnet50 (or --variant resnet152), eval mode,
one image, softmax, top-5.

The weights are image-recognition.c's model file (generated from the seed
by `cvmfn prepare`), loaded into torchvision's network (convnet.py); the
image is the normalised tensor prepare exports. init builds the network
and loads the weights (a warm instance's model load); invoke is one
forward pass under torch.no_grad(). The check is a tolerance on the
scores (docs/workloads.md): the digest, top-5 with probabilities to 4
decimals, is the C one's unless a probability sits on a rounding edge.
"""
import convnet

REQUIRES = [("torch", "python3-torch"), ("torchvision", "python3-torchvision"),
            ("numpy", "python3-numpy")]
IMPORTS = ["numpy", "torch", "torchvision.models"]
VARIANTS = ("resnet50", "resnet152")


def conv_pairs(net):
    pairs = [(net.conv1, net.bn1)]
    for layer in (net.layer1, net.layer2, net.layer3, net.layer4):
        for b in layer:
            pairs += [(b.conv1, b.bn1), (b.conv2, b.bn2), (b.conv3, b.bn3)]
            if b.downsample is not None:
                pairs.append((b.downsample[0], b.downsample[1]))
    return pairs


class Function:
    def __init__(self, params):
        import numpy
        import torch
        import torchvision
        self.torch, self.threads = torch, params.threads
        torch.set_num_threads(params.threads)
        self.variant = params.variant or "resnet50"
        if self.variant not in VARIANTS:
            raise ValueError("image-recognition: unknown variant '%s' (variants: %s)" %
                             (self.variant, ", ".join(VARIANTS)))
        self.net = getattr(torchvision.models, self.variant)().eval()
        weights = convnet.model_floats(params, "image-recognition", self.variant, numpy)
        convnet.load_pairs(torch, weights, conv_pairs(self.net),
                           (self.net.fc.weight, self.net.fc.bias))
        self.size = params.pick(32, 112, 224)
        self.image = convnet.image(params, "image-recognition", torch, numpy, self.size)
        self.output, self.summary = params.output, ""

    def invoke(self, out):
        with self.torch.no_grad():
            logits = self.net(self.image)[0]
        self.summary = "%s %dx%d (torchvision)," % (self.variant, self.size, self.size)
        convnet.report(self, out, logits)
