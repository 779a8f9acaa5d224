package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/host/store"
)

// A token is a random secret that alone allows changes: a player's, to
// change or pause that player, and the operator's, for everything. The
// host keeps their SHA-256 hashes only, so that a copy of its database
// gives no one the right to change anything.

// newToken returns a new token and its hash.
func newToken() (token, hash string) {
	token = rand.Text()
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// tokenMatches reports whether token is the one hash was made of, in
// time that does not depend on where they differ.
func tokenMatches(hash, token string) bool {
	if hash == "" || token == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(hash), []byte(hashToken(token))) == 1
}

// operatorKey is the setting that holds the hash of the operator's token.
const operatorKey = "operator_token_sha256"

// SetupOperator makes given the operator's token, if not empty. Else, if
// the host has no operator token yet, it makes one and returns it, for
// the command to print once; it returns "" when the token is unchanged.
func SetupOperator(ctx context.Context, st *store.Store, given string) (string, error) {
	if given != "" {
		return "", st.SetSetting(ctx, operatorKey, hashToken(given))
	}
	token, hash := newToken()
	set, err := st.SetSettingOnce(ctx, operatorKey, hash)
	if err != nil || !set {
		return "", err
	}
	return token, nil
}

// errNoToken is the answer to a change without a token.
var errNoToken = errors.New("a token is required: Authorization: Bearer TOKEN")

// bearer returns the token of a request: its Authorization header's
// bearer token, or its form's token field.
func bearer(r *http.Request) string {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return r.PostFormValue("token")
}

// isOperator reports whether token is the operator's.
func (h *Host) isOperator(ctx context.Context, token string) (bool, error) {
	hash, err := h.cfg.Store.Setting(ctx, operatorKey)
	if err != nil {
		return false, err
	}
	return tokenMatches(hash, token), nil
}
