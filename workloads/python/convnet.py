# SPDX-License-Identifier: MIT
"""What the torchvision twins of the classifiers share (convnet.c's side):
the model file cvmfn generated from the seed loaded into a torchvision
network, the exported input image, softmax, top-5 and the --output lines.

A model file is wlfile.c's 104-byte header, then float32 little endian:
per convolution its weights (out x in x k x k) then biases, batch norm
folded in. torchvision's batch norm becomes the identity (weight 1, mean
0, var 1 - eps) plus the folded bias, so the network computes the C one's.
"""
import os

import inputs

MODEL_HEADER = 104
TOP_K = 5


def model_floats(params, workload, variant, numpy):
    path = os.path.join(params.data_dir, "%s-%s-seed%d.model" % (workload, variant, params.seed))
    if not os.path.exists(path):
        raise inputs.MissingInput("%s: No such file or directory (run `cvmfn prepare %s "
                                  "--seed %d`)" % (path, workload, params.seed))
    with open(path, "rb") as f:
        return numpy.frombuffer(f.read()[MODEL_HEADER:], dtype="<f4")


def load_pairs(torch, weights, pairs, tail):
    """Copy @weights into (conv, bn) @pairs in order, then the @tail tensors."""
    off = 0

    def take(t):
        nonlocal off
        t.copy_(torch.from_numpy(weights[off:off + t.numel()].copy()).view_as(t))
        off += t.numel()
    with torch.no_grad():
        for conv, bn in pairs:
            take(conv.weight)
            if bn is None:
                take(conv.bias)
                continue
            bn.weight.fill_(1.0)
            take(bn.bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for t in tail:
            take(t)
    if off != len(weights):
        raise ValueError("the model file holds %d floats, the network %d" % (len(weights), off))


def open_classifier(fn, params, workload, variants, make_net, pairs, tail):
    """A classifier twin's init into @fn: torch on --threads, the variant
    checked against @variants (the first is the default), make_net(variant)
    in eval mode with the model file loaded into its pairs(net) and
    tail(net) tensors, the exported image at the instance's size."""
    import numpy
    import torch
    fn.torch, fn.threads = torch, params.threads
    torch.set_num_threads(params.threads)
    fn.variant = params.variant or variants[0]
    if fn.variant not in variants:
        raise ValueError("%s: unknown variant '%s' (variants: %s)" %
                         (workload, fn.variant, ", ".join(variants)))
    fn.net = make_net(fn.variant).eval()
    weights = model_floats(params, workload, fn.variant, numpy)
    load_pairs(torch, weights, pairs(fn.net), tail(fn.net))
    fn.size = params.pick(32, 112, 224)
    fn.image = image(params, workload, torch, numpy, fn.size)
    fn.output, fn.summary = params.output, ""


def classify(fn, out):
    """One call of a classifier twin: a forward pass under no_grad, then report()."""
    with fn.torch.no_grad():
        logits = fn.net(fn.image)[0]
    fn.summary = "%s %dx%d (torchvision)," % (fn.variant, fn.size, fn.size)
    report(fn, out, logits)


def image(params, workload, torch, numpy, size):
    data = inputs.read(params, workload, "image", 4 * 3 * size * size)
    return torch.from_numpy(numpy.frombuffer(data, dtype="<f4").copy()).view(1, 3, size, size)


def report(fn, out, logits):
    """Softmax in double, top-5 into the digest (index u64, probability .4f)."""
    logits = logits.double()
    prob = (logits - logits.max()).exp()
    prob = prob / prob.sum()
    top = sorted(range(len(prob)), key=lambda i: (-float(prob[i]), i))[:TOP_K]
    for i in top:
        out.u64(i)
        out.double(float(prob[i]), 4)
    fn.summary += " top-5" + "".join(" %d:%.4f" % (i, float(prob[i])) for i in top)
    if fn.output:
        f32 = logits.float()
        out.file(fn.output, "".join("%d %.9g %.9g\n" % (i, float(f32[i]), float(prob[i]))
                                    for i in range(len(prob))).encode())
