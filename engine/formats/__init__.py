"""Match record file formats: :mod:`engine.formats.mat` reads, checks and writes .mat files."""
