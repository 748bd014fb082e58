# One image for the gateway and both workers; compose picks the command.
# Pinned: the Python the tests run on, on Debian 12.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    OPENBLAS_NUM_THREADS=1 \
    OMP_NUM_THREADS=1 \
    MKL_NUM_THREADS=1 \
    OPENCV_NUM_THREADS=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY gridsight ./gridsight
COPY services ./services
RUN pip install --no-cache-dir -c constraints.txt .

RUN useradd --create-home --uid 10001 gridsight
USER gridsight

EXPOSE 8000
CMD ["uvicorn", "services.gateway.app:app", "--host", "0.0.0.0", "--port", "8000", "--no-proxy-headers"]
