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
        import torchvision
        convnet.open_classifier(self, params, "image-recognition", VARIANTS,
                                lambda v: getattr(torchvision.models, v)(), conv_pairs,
                                lambda net: (net.fc.weight, net.fc.bias))

    invoke = convnet.classify
