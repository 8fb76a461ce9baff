package dev.kumiko.partiql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** NextToken carries a key exactly, and a token a client made up is only ever a ValidationException. */
class PqNextTokenTest {

    @Test
    void roundTripsScalarKeys() {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put("pk", new AttributeValue.S("ユーザー#1"));
        key.put("sk", new AttributeValue.N(DynamoNumber.parse("-12.5e3")));
        key.put("bin", new AttributeValue.B(new byte[] {0, 1, (byte) 0xff}));
        assertThat(PqNextToken.decode(PqNextToken.encode(key))).isEqualTo(key);
        assertThat(PqNextToken.encode(Map.of())).isNull();
    }

    @Tag("slow")
    @Test
    void madeUpTokensAreValidationErrors() {
        Random random = new Random(15);
        for (int i = 0; i < 5000; i++) {
            byte[] bytes = new byte[random.nextInt(64)];
            random.nextBytes(bytes);
            if (bytes.length > 0 && random.nextBoolean()) {
                bytes[0] = (byte) (1 + random.nextInt(3)); // a plausible count, to get past the first check
            }
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            try {
                PqNextToken.decode(token);
            } catch (DynamoException e) {
                assertThat(e.getMessage()).isEqualTo("Invalid NextToken");
            }
        }
        byte[] hugeBinary = {1, 'B', 0, 1, 'a', (byte) 0xff, (byte) 0xff};
        assertThatThrownBy(() -> PqNextToken.decode(Base64.getUrlEncoder().encodeToString(hugeBinary)))
                .hasMessage("Invalid NextToken");
        assertThatThrownBy(() -> PqNextToken.decode("not base64 !")).hasMessage("Invalid NextToken");
    }
}
