"""Measuring extraction: ``kg eval`` scores a graph against gold annotations (``score``)."""
