"""gridsight's services: the gateway, the recognizer and the solver."""

import os

# One BLAS and OpenMP thread, set before numpy loads its BLAS: a grid's matrices are too
# small to share, and on a busy machine a second thread waiting for a core makes every
# product of the cell models many times slower.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
