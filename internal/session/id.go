package session

import "crypto/rand"

// NewID returns a random session id: six lower-case letters and digits,
// usable in table names on every database.
func NewID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [6]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	// A letter first: an identifier that starts with a digit needs quoting.
	b[0] = alphabet[int(b[0])%26]
	return string(b[:])
}

// ValidID reports whether id has the form NewID gives.
func ValidID(id string) bool {
	if len(id) != 6 || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for _, r := range id {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
