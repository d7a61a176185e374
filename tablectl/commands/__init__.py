"""One module per ``tablectl`` subcommand.

Each module defines ``register(subparsers)``, which adds its parser and sets ``func`` (a
callable taking the parsed ``argparse.Namespace`` and returning the exit status). Heavy imports
(cv2, sqlite work) happen inside ``func``, so ``tablectl --help`` stays fast.
"""
