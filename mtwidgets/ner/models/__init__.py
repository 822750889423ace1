"""NER model adapters and the embedded NER models."""
