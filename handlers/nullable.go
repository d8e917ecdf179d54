package handlers

// The seed schemas write optional values as anyOf [T, null], which the
// generator turns into interface{} fields. These helpers are the only way
// handlers fill them, so each holds a value of the schema's type or nil —
// never "" or 0 standing in for null.

// nullableCursor returns a cursor for an anyOf [cursor, null] field.
func nullableCursor(c string) any { return c }

// nullableStatus returns an exit status for an anyOf [integer, null] field.
func nullableStatus(status *int) any {
	if status == nil {
		return nil
	}
	return *status
}
