from .cli import main

# Guarded: process pools started with "spawn" (Dask workers) re-import this module.
if __name__ == "__main__":
    raise SystemExit(main())
