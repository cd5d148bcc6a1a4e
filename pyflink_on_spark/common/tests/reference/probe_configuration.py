"""Reference probe: Configuration key order (to_dict, str) and hash on PyFlink 1.20.

Replays 60 random sequences of set/remove/copy/add_all and prints them with the observed
results as JSON (saved as configuration_observed.json, replayed by
../test_common_configuration.py). Run: PATH=/opt/venvs/flink/bin:$PATH python probe_configuration.py
"""
import json
import random
from pyflink.common import Configuration
random.seed(7)
out = []
for trial in range(60):
    n = random.randint(0, 40)
    ops = []
    for _ in range(n):
        r = random.random()
        key = random.choice(["k%d" % random.randint(0, 60), "a.b.%s" % random.choice("xyzwvu"), "pipeline.name", "taskmanager.numberOfTaskSlots", "Aa", "BB", "é", "parallelism.default"])
        if r < 0.5: ops.append(["s", key, "v%d" % random.randint(0, 9)])
        elif r < 0.7: ops.append(["i", key, random.randint(-5, 10**12)])
        elif r < 0.8: ops.append(["b", key, random.random() < 0.5])
        elif r < 0.9: ops.append(["f", key, random.choice([1.5, 1e10, 0.1, 3.0])])
        else: ops.append(["r", key, None])
    copy_mode = random.choice(["none", "copy", "addall", "prefix"])
    c = Configuration()
    for op, k, v in ops:
        if op == "s": c.set_string(k, v)
        elif op == "i": c.set_integer(k, v)
        elif op == "b": c.set_boolean(k, v)
        elif op == "f": c.set_float(k, v)
        else: c.remove_config(k)
    if copy_mode == "copy": c = Configuration(c)
    elif copy_mode == "addall": c = Configuration().set_string("zz", "1").add_all(c)
    elif copy_mode == "prefix": c = Configuration().add_all(c, "p.")
    d = {}
    c.add_all_to_dict(d)
    out.append({"ops": ops, "copy": copy_mode, "to_dict": list(c.to_dict().items()), "str": str(c), "props": list(d.items()), "hash": hash(c)})
c = Configuration().set_bytearray("b", bytearray(range(100)))
out.append({"bytes100": c.get_string("b", None)})
print(json.dumps(out))
