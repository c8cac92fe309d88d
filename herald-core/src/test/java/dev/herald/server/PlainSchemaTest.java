package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlainSchemaTest {

  @Test
  void theUsualToolSchemasArePlainAndValidateOnTheirFirstCall() {
    String[] plain = {
      "{'type':'object'}",
      "{'type':'object','properties':{'text':{'type':'string','description':'d'}},"
          + "'required':['text'],'additionalProperties':false}",
      "{'type':'object','properties':{'n':{'type':['integer','null'],'minimum':1,'maximum':9},"
          + "'tags':{'type':'array','items':{'type':'string','enum':['a','b']},'maxItems':3}}}",
      "{'type':'object','properties':{'region':{'type':'string','x-mcp-header':'Region'}}}",
      "{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object',"
          + "'$defs':{'address':{'$anchor':'address','type':'object'}},"
          + "'properties':{'address':{'$ref':'#/$defs/address'}},"
          + "'allOf':[{'anyOf':[{'required':['name']},{'required':['address']}]}],"
          + "'if':{'properties':{'name':{'const':'admin'}}},'then':{'required':['address']},"
          + "'else':{}}"
    };
    for (String s : plain) {
      assertThat(PlainSchema.test(Json.parse(s))).as(s).isTrue();
      // compiled on this first call, without failing
      assertThat(ToolSchema.compile(Json.parse(s), "schema").check(Json.parse("{}"))).isNotNull();
    }
    ToolSchema lazy =
        ToolSchema.compile(
            Json.parse("{'type':'object','properties':{'n':{'type':'integer'}},'required':['n']}"),
            "schema");
    assertThat(lazy.check(Json.parse("{'n':3}"))).isEmpty();
    assertThat(lazy.check(Json.parse("{'n':'3'}"))).get().asString().contains("$.n");
    assertThat(lazy.check(Json.parse("{}"))).get().asString().contains("n");
  }

  @Test
  void aSchemaThatCouldFailToCompileIsNotPlainSoItIsCompiledAtRegistration() {
    String[] notPlain = {
      "{'type':'object','properties':{'x':{'$ref':'#/$defs/missing'}}}",
      "{'type':'object','properties':{'x':{'$ref':'http://127.0.0.1:9/schema.json'}}}",
      "{'type':'object','properties':{'x':{'$ref':'#/$defs/a'}},'$defs':{'a':{'pattern':'['}}}",
      "{'type':'object','properties':{'x':{'type':'string','pattern':'^a'}}}",
      "{'$schema':'http://json-schema.org/draft-07/schema#','type':'object'}",
      "{'type':'object','$id':'urn:x'}",
      "{'type':'stringy'}",
      "{'type':'object','minLength':-1}",
      "{'type':'object','enum':[]}",
      "{'type':'object','properties':{'a':{'$anchor':'x'},'b':{'$anchor':'x'}}}",
      "{'type':'object','properties':{'a':{'$schema':'https://json-schema.org/draft/2020-12/schema'}}}",
      "{'type':'object','unknownKeyword':1}"
    };
    for (String s : notPlain) {
      assertThat(PlainSchema.test(Json.parse(s))).as(s).isFalse();
    }
  }

  @Test
  void aReferenceCycleIsNotPlain() {
    assertThat(
            PlainSchema.test(
                Json.parse(
                    "{'type':'object','$defs':{'a':{'$ref':'#/$defs/b'},'b':{'$ref':'#/$defs/a'}}}")))
        .isFalse();
  }
}
