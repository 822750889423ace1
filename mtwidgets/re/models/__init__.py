"""Relation-extraction model adapters and the embedded RE models."""
