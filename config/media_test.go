package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMediaSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	os.WriteFile(path, []byte("models:\n  image:\n    base_url: http://localhost:8080/v1\n    model: sd\n    api_key_env: MY_IMAGE_KEY\n    size: 512x512\ntools:\n  translate:\n    libretranslate_url: http://localhost:5000\n"), 0o600)
	c, err := Load(path, envOf(map[string]string{"MY_IMAGE_KEY": "k1", "DEEPL_AUTH_KEY": "d:fx", "GEAR_IMAGE_MODEL": "gpt-image-1"}))
	if err != nil {
		t.Fatal(err)
	}
	im := c.Models.Image
	if im.Model != "gpt-image-1" || im.BaseURL != "http://localhost:8080/v1" || im.APIKey.Reveal() != "k1" || im.Size != "512x512" ||
		im.Timeout.D() <= 0 || im.MaxBytes <= 0 || !strings.Contains(im.KeyFrom, "MY_IMAGE_KEY") {
		t.Errorf("image role %+v", im)
	}
	if c.Tools.Translation.LibreTranslateURL != "http://localhost:5000" || c.Tools.Translation.DeepLKey.Reveal() != "d:fx" {
		t.Errorf("translate %+v", c.Tools.Translation)
	}
	if strings.Contains(c.Models.Image.APIKey.String()+c.Tools.Translation.DeepLKey.String(), "k1") {
		t.Error("a key prints")
	}
	for _, bad := range []struct{ yaml, want string }{
		{"models:\n  image:\n    size: big\n", "models.image.size"},
		{"models:\n  image:\n    response_format: png\n", "models.image.response_format"},
		{"models:\n  image:\n    base_url: localhost\n", "models.image.base_url"},
		{"tools:\n  translate:\n    deepl_url: ftp://x\n", "tools.translate.deepl_url"},
	} {
		os.WriteFile(path, []byte(bad.yaml), 0o600)
		if _, err := Load(path, envOf(nil)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v", bad.yaml, err)
		}
	}
}
