package config

import (
	"fmt"
	"io/fs"
)

// keyFileWarning is the one-line warning for a config file that holds an
// API key and that users other than its owner may read, as ssh warns about
// a private key; "" when there is nothing to say. cfg is the file's
// settings, before the environment's.
func keyFileWarning(path string, mode fs.FileMode, cfg Config) string {
	if mode.Perm()&0o077 == 0 {
		return ""
	}
	for _, name := range RoleNames() {
		if cfg.Models.Role(name).APIKey != "" {
			return fmt.Sprintf("warning: %s holds an API key (models.%s.api_key) and others can read it (mode %04o); run chmod 600 %s, or move the key to api_key_env",
				path, name, mode.Perm(), path)
		}
	}
	return ""
}
