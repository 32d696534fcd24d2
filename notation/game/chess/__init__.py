"""The chess family's legal positions: rules built once per variant (``rules``), one
object per rule twist (``twists``), pseudo-legal moves (``generate``) and the legal
position (``position.ChessPosition``)."""
