import { describe, expect, it } from "vitest";
import { isNumericType, simplifyType } from "./sql-types";

describe("simplifyType", () => {
  it("applies the catalog's rules", () => {
    expect(simplifyType("Nullable(Float64)")).toBe("Float");
    expect(simplifyType("Float32")).toBe("Float");
    expect(simplifyType("DateTime64(3, 'UTC')")).toBe("DateTime");
    expect(simplifyType("Nullable(DateTime64(3, 'UTC'))")).toBe("DateTime");
    expect(simplifyType("DateTime('UTC')")).toBe("DateTime");
    expect(simplifyType("UInt64")).toBe("UInt");
    expect(simplifyType("Int8")).toBe("Int");
    expect(simplifyType("Nullable(UInt32)")).toBe("UInt");
    expect(simplifyType("LowCardinality(String)")).toBe("String");
    expect(simplifyType("Array(LowCardinality(String))")).toBe("Array(String)");
    expect(simplifyType("Array(Float64)")).toBe("Array(Float)");
    expect(simplifyType("String")).toBe("String");
    expect(simplifyType("Bool")).toBe("Bool");
  });
});

describe("isNumericType", () => {
  it("recognises numbers, nullable or not", () => {
    expect(isNumericType("UInt64")).toBe(true);
    expect(isNumericType("Nullable(Float64)")).toBe(true);
    expect(isNumericType("String")).toBe(false);
    expect(isNumericType("DateTime")).toBe(false);
  });
});
