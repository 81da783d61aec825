/// What every formatter prints for a value it cannot show (unknown,
/// non-finite, or past what the format can hold): `TextFormat.unknown` in the
/// writers, and the model's own text (an instant past year ±300,000).
public let unknownText = "-"
