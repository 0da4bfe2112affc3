# SPDX-License-Identifier: MIT
"""cnn-classification: FunctionBench's cnn_image_classification, one image
through SqueezeNet 1.1, softmax, top-5. FunctionBench uses Keras on
TensorFlow, which Debian 12 does not package: this twin uses the nearest
Debian has, PyTorch with torchvision's squeezenet1_1 (python3-torch 1.13,
python3-torchvision 0.14), the very network cnn-classification.c builds.

The weights are cnn-classification.c's model file (generated from the seed
by `cvmfn prepare`): per convolution its weights then its bias, in the
order conv1, each fire's squeeze, expand 1x1, expand 3x3, the classifier
(convnet.py). The image is the normalised tensor prepare exports. init
builds the network and loads the weights (a warm instance's model load);
invoke is one forward pass under torch.no_grad(). The check is a tolerance
on the scores (docs/workloads.md): the digest, top-5 with probabilities to
4 decimals, is the C one's unless a probability sits on a rounding edge.
"""
import convnet

REQUIRES = [("torch", "python3-torch"), ("torchvision", "python3-torchvision"),
            ("numpy", "python3-numpy")]
IMPORTS = ["numpy", "torch", "torchvision.models"]
VARIANTS = ("squeezenet1_1",)
FIRES = (3, 4, 6, 7, 9, 10, 11, 12)      # the Fire modules in net.features


def conv_pairs(net):
    """(conv, None) in the model file's order: no batch norm in SqueezeNet."""
    convs = [net.features[0]]
    for i in FIRES:
        fire = net.features[i]
        convs += [fire.squeeze, fire.expand1x1, fire.expand3x3]
    convs.append(net.classifier[1])
    return [(c, None) for c in convs]


class Function:
    def __init__(self, params):
        import torchvision
        convnet.open_classifier(self, params, "cnn-classification", VARIANTS,
                                lambda v: torchvision.models.squeezenet1_1(), conv_pairs,
                                lambda net: ())

    invoke = convnet.classify
