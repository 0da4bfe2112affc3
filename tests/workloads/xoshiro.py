# tests/workloads/xoshiro.py - an independent Python model of the generator
# workloads/rng.c documents (xoshiro256** seeded by splitmix64, streams mixed
# into the seed, rejection sampling for rng_below), for the test models of
# random-disk-io and crud-api. Import it with PYTHONPATH=tests/workloads.
M = (1 << 64) - 1


def splitmix(x):
    """One splitmix64 step: the new state and the output."""
    x = (x + 0x9e3779b97f4a7c15) & M
    z = x
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return x, z ^ (z >> 31)


class Rng:
    """rng_seed_stream(seed, stream), then rng_next() / rng_below(n)."""

    def __init__(self, seed, stream):
        mix = seed ^ ((stream * 0xd1342543de82ef95 + 0x632be59bd9b4e019) & M)
        _, x = splitmix(mix)
        self.s = []
        for _ in range(4):
            x, v = splitmix(x)
            self.s.append(v)

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
        r = (rotl((s[1] * 5) & M, 7) * 9) & M
        t = (s[1] << 17) & M
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
        s[3] = rotl(s[3], 45)
        return r

    def below(self, n):
        limit = M - M % n
        while True:
            v = self.next()
            if v < limit:
                return v % n
