"""A helper process of the analysis: ``python -m analysis.gnubg_helper`` (analysis.gnubg_adapter).

It analyses, on its own main thread, the shares of matches' games a worker's analysis gives it,
so that a long match's games are analysed by several processes at once; it ends when its input
ends (the worker's analysis closed it) or when the process that started it ends.
"""

from analysis.gnubg_adapter import serve

if __name__ == "__main__":
    serve()
