package shellwords

import "fmt"

// Split returns the words of s, or an error for an unterminated quote or a trailing
// backslash.
func Split(s string) ([]string, error) {
	var words []string
	var word []byte
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, string(word))
				word, inWord = word[:0], false
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("%q: a backslash ends the line", s)
			}
			i++
			word, inWord = append(word, s[i]), true
		case c == '\'':
			j := i + 1
			for j < len(s) && s[j] != '\'' {
				j++
			}
			if j == len(s) {
				return nil, fmt.Errorf("%q: unterminated single quote at byte %d", s, i+1)
			}
			word, inWord = append(word, s[i+1:j]...), true
			i = j
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\\' || s[j+1] == '$' || s[j+1] == '`') {
					j++
				}
				word = append(word, s[j])
			}
			if j == len(s) {
				return nil, fmt.Errorf("%q: unterminated double quote at byte %d", s, i+1)
			}
			inWord = true
			i = j
		default:
			word, inWord = append(word, c), true
		}
	}
	if inWord {
		words = append(words, string(word))
	}
	return words, nil
}
