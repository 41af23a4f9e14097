package config

import (
	"fmt"
	"strings"
	"time"
)

// ImageRole is models.image: the OpenAI-compatible endpoint images are
// generated with (POST /v1/images/generations) — OpenAI (gpt-image-1,
// dall-e-3), LocalAI, stable-diffusion.cpp's sd-server. It is a model
// role like the others, with the image's own settings; it is configured
// only when it names a model. --offline does not turn it off: like the
// weather service, it is a tool's service, and it asks before it spends.
type ImageRole struct {
	Role `yaml:",inline"`
	// Size is the size asked for when the call gives none ("1024x1024");
	// empty leaves it to the server.
	Size string `yaml:"size" json:"size,omitempty"`
	// ResponseFormat is b64_json or url; empty sends none, which GPT
	// Image models require (they always answer b64_json).
	ResponseFormat string `yaml:"response_format" json:"response_format,omitempty"`
	// MaxBytes caps a downloaded or decoded image.
	MaxBytes int64 `yaml:"max_bytes" json:"max_bytes,omitempty"`
}

// Translation configures the translation tool's services, used in this order
// when set: LibreTranslate, DeepL, then the chat model.
type Translation struct {
	// LibreTranslateURL is a LibreTranslate server's root, e.g.
	// http://localhost:5000 or https://libretranslate.com.
	LibreTranslateURL string `yaml:"libretranslate_url" json:"libretranslate_url,omitempty"`
	LibreTranslateKey Secret `yaml:"libretranslate_key" json:"libretranslate_key,omitempty"`
	// DeepLKey is a DeepL API key (a free one ends in :fx); DeepLURL
	// overrides the host chosen by the key.
	DeepLKey Secret `yaml:"deepl_key" json:"deepl_key,omitempty"`
	DeepLURL string `yaml:"deepl_url" json:"deepl_url,omitempty"`
}

func defaultImageRole() ImageRole {
	return ImageRole{Role: Role{Timeout: Duration(120 * time.Second)}, MaxBytes: 32 << 20}
}

// applyMediaEnv reads GEAR_IMAGE_{MODEL,BASE_URL,API_KEY,TIMEOUT},
// models.image.api_key_env, GEAR_LIBRETRANSLATE_URL,
// LIBRETRANSLATE_API_KEY and DEEPL_AUTH_KEY.
func applyMediaEnv(cfg *Config, getenv Getenv) error {
	r := &cfg.Models.Image.Role
	if r.APIKey != "" {
		r.KeyFrom = "config file (models.image.api_key)"
	}
	if r.APIKeyEnv != "" {
		if v := getenv(r.APIKeyEnv); v != "" {
			r.APIKey = Secret(v)
			r.KeyFrom = "$" + r.APIKeyEnv + " (models.image.api_key_env)"
		}
	}
	if err := applyRoleEnv(r, "GEAR_IMAGE_", getenv); err != nil {
		return err
	}
	t := &cfg.Tools.Translation
	if v := getenv("GEAR_LIBRETRANSLATE_URL"); v != "" {
		t.LibreTranslateURL = v
	}
	if v := getenv("LIBRETRANSLATE_API_KEY"); v != "" {
		t.LibreTranslateKey = Secret(v)
	}
	if v := getenv("DEEPL_AUTH_KEY"); v != "" {
		t.DeepLKey = Secret(v)
	}
	return nil
}

// validateMedia checks models.image and tools.translate.
func (c Config) validateMedia() error {
	im := c.Models.Image
	if err := im.Role.validate(); err != nil {
		return fmt.Errorf("config: models.image.%w", err)
	}
	switch im.ResponseFormat {
	case "", "b64_json", "url":
	default:
		return fmt.Errorf("config: models.image.response_format is %q; want b64_json, url or nothing", im.ResponseFormat)
	}
	if im.Size != "" && !validSize(im.Size) {
		return fmt.Errorf("config: models.image.size is %q; want WIDTHxHEIGHT like 1024x1024, or auto", im.Size)
	}
	if im.MaxBytes < 0 {
		return fmt.Errorf("config: models.image.max_bytes must not be negative")
	}
	t := c.Tools.Translation
	for key, u := range map[string]string{"libretranslate_url": t.LibreTranslateURL, "deepl_url": t.DeepLURL} {
		if u != "" {
			if err := checkBaseURL(u); err != nil {
				return fmt.Errorf("config: tools.translate.%s: %w", key, err)
			}
		}
	}
	return nil
}

// validSize reports whether s is WIDTHxHEIGHT or auto.
func validSize(s string) bool {
	if s == "auto" {
		return true
	}
	w, h, ok := strings.Cut(s, "x")
	return ok && digits(w) && digits(h)
}

func digits(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
