# SPDX-License-Identifier: MIT
"""logistic-regression: TF-IDF features of review texts and an L2 logistic
regression trained on them with scikit-learn, as FunctionBench's
model_training does (Debian python3-sklearn 1.2: TfidfVectorizer,
LogisticRegression(C=1)).

The reviews come from `cvmfn prepare logistic-regression` (reviews:
LABEL<TAB>TEXT lines, logistic-regression.c's), or --input (the same
format). invoke fits the vectorizer and the model and predicts the
training set. sklearn's lbfgs runs to convergence (max_iter 1000) where
logistic-regression.c stops after 300 Nesterov steps on the same
objective, so the weights differ a little: the check is a tolerance on
the probabilities (docs/workloads.md), with the TF-IDF matrix itself
equal within 1e-12. Digest: each prediction ("0"/"1"), each weight with 6
decimals (intercept last), the count correct: logistic-regression.c's
layout; --output writes its "v", "x", "w", "p", "acc" lines.
"""
import inputs

REQUIRES = [("sklearn", "python3-sklearn"), ("numpy", "python3-numpy")]
IMPORTS = ["numpy", "sklearn.feature_extraction.text", "sklearn.linear_model"]


def parse(data, name):
    labels, texts = [], []
    for n, line in enumerate(data.decode("latin-1").splitlines(), 1):
        if line[:2] not in ("0\t", "1\t"):
            raise ValueError("logistic-regression: %s line %d is not LABEL<TAB>TEXT" % (name, n))
        labels.append(int(line[0]))
        texts.append(line[2:])
    if len(texts) < 2:
        raise ValueError("logistic-regression: %s holds < 2 reviews" % name)
    return labels, texts


class Function:
    threads = 1

    def __init__(self, params):
        import numpy
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        self.np, self.vectorizer, self.model = numpy, TfidfVectorizer, LogisticRegression
        if params.input:
            with open(params.input, "rb") as f:
                self.labels, self.texts = parse(f.read(), params.input)
        else:
            self.labels, self.texts = parse(
                inputs.read(params, "logistic-regression", "reviews"), "reviews")
        self.y = numpy.array(self.labels)
        self.output, self.summary = params.output, ""

    def invoke(self, out):
        vec = self.vectorizer()
        x = vec.fit_transform(self.texts)
        model = self.model(C=1.0, max_iter=1000).fit(x, self.y)
        prob = model.predict_proba(x)[:, 1]
        pred = prob >= 0.5
        correct = int((pred == (self.y == 1)).sum())
        out.ref(b"".join(b"1" if p else b"0" for p in pred))
        w = list(model.coef_[0]) + [float(model.intercept_[0])]
        for v in w:
            out.double(float(v), 6)
        out.u64(correct)
        self.summary = "%d reviews, %d features, lbfgs %d iterations: training accuracy %.4f" % (
            len(self.texts), x.shape[1], int(model.n_iter_[0]), correct / len(self.texts))
        if self.output:
            out.file(self.output, self.lines(vec, x, w, prob, correct).encode())

    def lines(self, vec, x, w, prob, correct):
        text = ["v %s\n" % word for word in vec.get_feature_names_out()]
        coo = x.tocoo()
        text += ["x %d %d %.17g\n" % t for t in sorted(zip(coo.row, coo.col, coo.data))]
        text += ["w %d %.17g\n" % (j, v) for j, v in enumerate(w)]
        text += ["p %d %.17g\n" % (d, p) for d, p in enumerate(prob)]
        text.append("acc %.6f\n" % (correct / len(self.texts)))
        return "".join(text)
