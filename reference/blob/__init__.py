"""The append-only blob `blob.dat`: framed, checksummed records (README.md here, format in reference/README.md)."""
from reference.blob.blob import HEADER_SIZE, MAGIC, Blob, BlobRef, RecoveryReport, checksum, frame

__all__ = ["Blob", "BlobRef", "RecoveryReport", "HEADER_SIZE", "MAGIC", "checksum", "frame"]
