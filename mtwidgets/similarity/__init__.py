"""The similarity task of the Chinese NLP paper (declared in :mod:`.task`)."""
