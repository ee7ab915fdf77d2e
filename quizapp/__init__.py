"""quizapp: learn, drill and rehearse Transformer attention for ML/LLM interviews."""

__version__ = "0.1.0"
